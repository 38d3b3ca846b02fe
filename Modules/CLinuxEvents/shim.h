// Linux's event notification calls, which the Swift Glibc module does not import: epoll(7) for
// the HTTP server's event loop and eventfd(2) for waking it. Part of the C library: nothing to link.
#include <sys/epoll.h>
#include <sys/eventfd.h>
