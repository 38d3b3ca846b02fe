// The PostgreSQL client library (Debian's libpq-dev), exposed to Swift as the module CLibPQ.
#include <postgresql/libpq-fe.h>
