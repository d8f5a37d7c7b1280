// The JIT library's static objects (LLVM's option registry, target tables,
// caches) are never destroyed: a compile still running on another thread when
// the process exits, the background warm-up for one, would otherwise use them
// after exit() destroyed them. This library-local __cxa_atexit, which the
// compiler calls to register the destructor of each static object, registers
// nothing; the memory goes away with the process. Hidden, so it binds only the
// JIT library's own code, never the program's.
extern "C" __attribute__((visibility("hidden"))) int __cxa_atexit(void (*)(void *), void *, void *) { return 0; }
