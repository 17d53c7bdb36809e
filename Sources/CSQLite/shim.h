#include <sqlite3.h>

// SQLITE_TRANSIENT is a cast macro Swift cannot import: tell SQLite to copy bound text.
static inline sqlite3_destructor_type transit_sqlite_transient(void) { return SQLITE_TRANSIENT; }
