#!/usr/bin/env bash
# tests/hostile/make-bad-sql-reports.sh DIR: hostile reports for `stats --report-dir DIR`, one
# NAME.sql each: statements that write, attach, load code or change pragmas, several statements,
# queries that never end or fail while they run, parser limits, and valid ones whose names and
# values are hostile to the formats. What each must give is in sql-reports.tsv.
set -euo pipefail
dir=$1
mkdir -p "$dir"
r() { printf '%s\n' "$2" >"$dir/$1.sql"; } # r NAME SQL

# writing, in every way SQLite has
r insert "INSERT INTO StringIds VALUES (999999, 'x')"
r insert_select "INSERT INTO StringIds SELECT id + 1000000, value FROM StringIds"
r replace "REPLACE INTO StringIds VALUES (1, 'x')"
r update "UPDATE StringIds SET value = 'x'"
r delete "DELETE FROM StringIds"
r upsert "INSERT INTO StringIds VALUES (1, 'x') ON CONFLICT DO NOTHING"
r returning "DELETE FROM StringIds RETURNING id"
r cte_delete "WITH x AS (SELECT 1) DELETE FROM StringIds"
r create_table "CREATE TABLE t AS SELECT * FROM StringIds"
r create_temp_table "CREATE TEMP TABLE t (x)"
r create_temp_view "CREATE TEMP VIEW StringIds AS SELECT 1 AS id, 'x' AS value"
r create_index "CREATE INDEX i ON StringIds (value)"
r create_trigger "CREATE TEMP TRIGGER t AFTER INSERT ON StringIds BEGIN SELECT 1; END"
r create_vtab "CREATE VIRTUAL TABLE t USING fts5 (x)"
r drop_table "DROP TABLE StringIds"
r alter "ALTER TABLE StringIds ADD COLUMN x"
r reindex "REINDEX"
r analyze "ANALYZE"
r vacuum "VACUUM"
r vacuum_into "VACUUM INTO 'hostile-copy.db'"
r begin "BEGIN IMMEDIATE"
r savepoint "SAVEPOINT s"
r attach "ATTACH DATABASE 'hostile-attached.db' AS a"
r attach_memory "ATTACH ':memory:' AS m"
r detach "DETACH DATABASE main"
r load_extension "SELECT load_extension('/nonexistent/x.so')"
r load_extension_upper "SELECT LOAD_EXTENSION('/nonexistent/x.so', 'init')"
r pragma_writable_schema "PRAGMA writable_schema = ON"
r pragma_journal "PRAGMA journal_mode = DELETE"
r pragma_query_only "PRAGMA query_only = 0"
r pragma_user_version "PRAGMA user_version = 1"
r pragma_in_select "SELECT * FROM pragma_user_version"
r pragma_trusted_schema "PRAGMA trusted_schema = 1"
# more than one statement, or none
r two_statements "SELECT 1; DROP TABLE StringIds"
r two_selects "SELECT 1; SELECT 2"
r comment_only "-- nothing but a comment"
r semicolons_only ";;;"
# parameters, which no -r argument binds
r parameter "SELECT ?1"
r named_parameter "SELECT \$x"
# queries that never end, or grow without end
r recursive_forever "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c"
r cross_join_forever "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 1000000) SELECT count(*) FROM c AS a, c AS b"
# failures while the query runs
r integer_overflow "SELECT sum(x) FROM (SELECT 9223372036854775807 AS x UNION ALL SELECT 1)"
r huge_blob "SELECT zeroblob(2000000000)"
r huge_string "SELECT printf('%.*c', 2000000000, 'x')"
r json_error "SELECT json('{')"
# parser limits
r deep_parens "SELECT $(printf '(%.0s' {1..2000})1$(printf ')%.0s' {1..2000})"
r long_in_list "SELECT 1 IN ($(seq -s, 1 20000))"
r unterminated_string "SELECT 'abc"
r unterminated_comment "SELECT 1 /* and then"
# valid, with names and values that the formats must escape
r hostile_names "SELECT 'a,\"b\"' AS \"x,y\", '<td>&amp;' AS \"<th>\", 'tab	in' AS \"c:dur_ns\", char(10, 13, 1, 127) AS \"line
break\", x'00ff' AS \"Blob\", NULL AS \"_hidden\", 1e308 * 10 AS \"Inf\", -0.0 AS \"Zero:mem_B\""
r temp_schema "SELECT count(*) AS n FROM sqlite_temp_master"
r main_qualified "SELECT count(*) AS n FROM main.StringIds WHERE id >= 0"
r read_schema "SELECT name AS \"Name\", type AS \"Type\" FROM sqlite_master ORDER BY name LIMIT 3"
