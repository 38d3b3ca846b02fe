// The system SQLite library (Debian's libsqlite3-dev), exposed to Swift as the module CSQLite.
#include <sqlite3.h>
