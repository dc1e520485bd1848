// glibc's malloc tuning (mallopt), which the Glibc module does not include. Part of libc: nothing to link.
#include <malloc.h>
