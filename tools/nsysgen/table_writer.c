/* Writing one table of the export: created from its CREATE TABLE text in schema.sql on its first row,
 * then filled through one prepared INSERT. */
#include "nsysgen.h"

static bool is_identifier_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* --no-green-context leaves this column out of the tables that have it. */
static bool column_left_out(const struct config *cfg, const char *name, size_t len)
{
    return !cfg->green_context && len == strlen("greenContextId") && strncmp(name, "greenContextId", len) == 0;
}

/* The CREATE TABLE statement of `table` in schema.sql, from "CREATE" to the closing ")" (the ';'
 * is no part of what sqlite_master keeps), as a string for sqlite3_free(). */
char *schema_create_table(const char *table)
{
    static const char KEYWORDS[] = "CREATE TABLE ";
    size_t name_len = strlen(table);
    for (const char *s = SCHEMA_SQL; (s = strstr(s, KEYWORDS)) != NULL; s++) {
        const char *name = s + strlen(KEYWORDS);
        if ((s != SCHEMA_SQL && s[-1] != '\n') || strncmp(name, table, name_len) != 0 ||
            strncmp(name + name_len, " (\n", 3) != 0)
            continue;
        const char *close = strstr(name, "\n);");
        if (!close)
            break;
        char *sql = sqlite3_mprintf("%.*s", (int)(close + 2 - s), s);
        if (!sql)
            fail("%s: out of memory", table);
        return sql;
    }
    fail("internal error: schema.sql has no CREATE TABLE %s statement ending in a line \");\"", table);
}

static char *finish_str(sqlite3_str *s, const char *what)
{
    if (sqlite3_str_errcode(s) != SQLITE_OK)
        fail("%s: out of memory", what);
    return sqlite3_str_finish(s);
}

/* Creates the table from its 2024.2.3 text (less any column left out) and prepares its INSERT.
 * Parameters are numbered by the column's place in the full table, so the row code binds the same
 * numbers whether or not a column was left out: SQLite accepts binds to numbers a statement skips. */
void writer_open(const struct config *cfg, struct table_writer *w)
{
    char *table_sql = schema_create_table(w->table);
    sqlite3_str *create = sqlite3_str_new(g_out.db), *cols = sqlite3_str_new(g_out.db),
                *vals = sqlite3_str_new(g_out.db);
    int column = 0, kept = 0;
    for (const char *line = table_sql; *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) + 1 : strlen(line);
        const char *p = line;
        while (*p == ' ')
            p++;
        size_t name_len = 0;
        while (line != table_sql && is_identifier_char(p[name_len]))
            name_len++;
        bool is_column = name_len > 0 && !(name_len == 7 && strncmp(p, "PRIMARY", 7) == 0);
        if (is_column) {
            column++;
            if (column_left_out(cfg, p, name_len)) {
                line += len;
                continue;
            }
            sqlite3_str_appendf(cols, "%s%.*s", kept ? ", " : "", (int)name_len, p);
            sqlite3_str_appendf(vals, "%s?%d", kept ? ", " : "", column);
            kept++;
        }
        sqlite3_str_append(create, line, (int)len);
        line += len;
    }
    char *create_sql = finish_str(create, w->table);
    char *col_list = finish_str(cols, w->table);
    char *val_list = finish_str(vals, w->table);
    char *insert_sql = sqlite3_mprintf("INSERT INTO %s (%s) VALUES (%s)", w->table, col_list, val_list);
    if (!insert_sql)
        fail("%s: out of memory", w->table);
    char what[128];
    snprintf(what, sizeof what, "creating table %s", w->table);
    exec_sql(create_sql, what);
    if (sqlite3_prepare_v3(g_out.db, insert_sql, -1, SQLITE_PREPARE_PERSISTENT, &w->insert, NULL) != SQLITE_OK) {
        snprintf(what, sizeof what, "preparing the INSERT into %s", w->table);
        fail_sqlite(what);
    }
    w->ncols = column;
    sqlite3_free(table_sql);
    sqlite3_free(create_sql);
    sqlite3_free(col_list);
    sqlite3_free(val_list);
    sqlite3_free(insert_sql);
}

void row_begin(const struct config *cfg, struct table_writer *w)
{
    if (!w->insert)
        writer_open(cfg, w);
    w->next = 1;
    w->bind_rc = SQLITE_OK;
}

static void note_bind(struct table_writer *w, int rc)
{
    if (rc != SQLITE_OK && w->bind_rc == SQLITE_OK)
        w->bind_rc = rc;
    w->next++;
}

void put_int(struct table_writer *w, int64_t v) { note_bind(w, sqlite3_bind_int64(w->insert, w->next, v)); }

void put_null(struct table_writer *w) { note_bind(w, sqlite3_bind_null(w->insert, w->next)); }

/* The text must stay valid until row_end(): every caller passes static or long-lived strings. */
void put_text(struct table_writer *w, const char *s)
{
    if (s)
        note_bind(w, sqlite3_bind_text(w->insert, w->next, s, -1, SQLITE_STATIC));
    else
        put_null(w);
}

/* A nullable column: NULL when `present` is false. */
void put_int_or_null(struct table_writer *w, bool present, int64_t v)
{
    if (present)
        put_int(w, v);
    else
        put_null(w);
}

void row_end(struct table_writer *w)
{
    if (w->next - 1 != w->ncols)
        fail("internal error: a row of %s has %d values, the table has %d columns", w->table, w->next - 1, w->ncols);
    if (w->bind_rc != SQLITE_OK)
        fail("%s: binding a row: %s", w->table, sqlite3_errstr(w->bind_rc));
    if (sqlite3_step(w->insert) != SQLITE_DONE) {
        char what[128];
        snprintf(what, sizeof what, "inserting into %s", w->table);
        fail_sqlite(what);
    }
    if (sqlite3_reset(w->insert) != SQLITE_OK)
        fail_sqlite("resetting an INSERT");
    w->rows++;
}

void writer_close(struct table_writer *w)
{
    if (w->insert && sqlite3_finalize(w->insert) != SQLITE_OK)
        fail_sqlite("finalizing an INSERT");
    w->insert = NULL;
}
