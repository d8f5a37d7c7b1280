// Compiled without -fsycl-sscp (no SYCL headers, no device code): the host
// definition of external.h's ext_host_only.
int ext_host_only(int x);
int ext_host_only(int x) { return x + 1; }
