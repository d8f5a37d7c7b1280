// ONEPASS_LOG_FILE (issue 19): the runtime's messages go to a file, %r the
// MPI rank, %p the process id, %% a percent sign; a file that cannot be
// opened means stderr, said once. (lit reads %% as %.)
// RUN: %onepass -fsycl-sscp -O2 %s -o %t
// RUN: rm -rf %t.logs && mkdir -p %t.logs
// RUN: env ONEPASS_LOG=info ONEPASS_LOG_FILE=%t.logs/rank-%%r-100%%%%.log OMPI_COMM_WORLD_RANK=5 %t 2> %t.stderr | FileCheck %s --check-prefix=RAN
// RUN: FileCheck %s --check-prefix=FILE < %t.logs/rank-5-100%%.log
// RUN: FileCheck %s --check-prefix=QUIET --allow-empty < %t.stderr
// RUN: env ONEPASS_LOG=info ONEPASS_LOG_FILE=%t.logs/pid-%%p.log %t
// RUN: ls %t.logs | FileCheck %s --check-prefix=PID
// RUN: env ONEPASS_LOG=info ONEPASS_LOG_FILE=/nonexistent/dir/x.log %t 2>&1 | FileCheck %s --check-prefix=FALLBACK
#include <sycl/sycl.hpp>

#include <cstdio>

// RAN: ran
// FILE: [onepass] info:
// QUIET-NOT: [onepass]
// PID: pid-{{[0-9]+}}.log
// FALLBACK: [onepass] warning: cannot open ONEPASS_LOG_FILE '/nonexistent/dir/x.log'; logging to stderr
// FALLBACK-NOT: cannot open
// FALLBACK: [onepass] info:

int main() {
  sycl::queue q(sycl::cpu_selector_v);
  int *x = sycl::malloc_shared<int>(1, q);
  q.single_task([=] { *x = 1; }).wait();
  std::printf(*x == 1 ? "ran\n" : "wrong\n");
  sycl::free(x, q);
  return 0;
}
