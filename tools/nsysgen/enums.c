/* The ENUM_* tables: the labels nsys 2024.2.3 writes into every export (schema 3.0 on). Their rows are
 * in enums_cuda_to_net.c and enums_nsys_to_wddm.c. */
#include "nsysgen.h"

/* Every ENUM_* table has the same columns; only the comment line differs. */
static const char SQL_ENUM_FORMAT[] =
    "CREATE TABLE %s (\n"
    "    -- %s\n"
    "\n"
    "    id                          INTEGER   NOT NULL   PRIMARY KEY,      -- Enum numerical value.\n"
    "    name                        TEXT,                                  -- Enum symbol name.\n"
    "    label                       TEXT                                   -- Enum human name.\n"
    ")";

static void write_enum_table(const struct enum_table *e)
{
    char *create = sqlite3_mprintf(SQL_ENUM_FORMAT, e->table, e->comment);
    char *insert = sqlite3_mprintf("INSERT INTO %s (id, name, label) VALUES (?1, ?2, ?3)", e->table);
    if (!create || !insert)
        fail("out of memory");
    struct table_writer w = WRITER(e->table);
    exec_sql(create, "creating an ENUM table");
    if (sqlite3_prepare_v2(g_out.db, insert, -1, &w.insert, NULL) != SQLITE_OK)
        fail_sqlite("preparing an ENUM insert");
    w.ncols = 3;
    for (size_t i = 0; i < e->nrows; i++) {
        w.next = 1;
        w.bind_rc = SQLITE_OK;
        put_int(&w, e->rows[i].id);
        put_text(&w, e->rows[i].name);
        put_text(&w, e->rows[i].label);
        row_end(&w);
    }
    writer_close(&w);
    sqlite3_free(create);
    sqlite3_free(insert);
}

void write_enum_tables(void)
{
    for (size_t t = 0; t < ENUM_TABLES_CUDA_TO_NET_COUNT; t++)
        write_enum_table(&ENUM_TABLES_CUDA_TO_NET[t]);
    for (size_t t = 0; t < ENUM_TABLES_NSYS_TO_WDDM_COUNT; t++)
        write_enum_table(&ENUM_TABLES_NSYS_TO_WDDM[t]);
}
