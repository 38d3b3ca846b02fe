// The system JPEG library (Debian's libjpeg62-turbo-dev, installed by libjpeg-dev), exposed to
// Swift as the module CJPEG. jpeglib.h needs stdio.h (FILE) and stddef.h (size_t) first.
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>
