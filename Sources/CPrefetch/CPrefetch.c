// The module is its header (a static inline function); SwiftPM wants one source file.
#include "CPrefetch.h"
