// The system PNG library (Debian's libpng-dev), exposed to Swift as the module CPNG.
#include <png.h>
