// The HSA runtime API the HSA backend uses, resolved from ROCm's runtime
// (libhsa-runtime64.so.1) at run time: the backend builds with only the
// headers (Debian's libhsa-runtime-dev) and is absent where no runtime is
// installed. Types and constants from <hsa/hsa.h> and <hsa/hsa_ext_amd.h>.
#pragma once

#include <hsa/hsa.h>
#include <hsa/hsa_ext_amd.h>

#include <string>

namespace onepass::hsa {

struct Api {
  void *library = nullptr;
  // clang-format off
#define ONEPASS_HSA_FUNCTIONS(X)                                                                                    \
  X(hsa_init) X(hsa_status_string) X(hsa_system_get_info) X(hsa_iterate_agents) X(hsa_agent_get_info)               \
  X(hsa_agent_iterate_isas) X(hsa_isa_get_info_alt) X(hsa_amd_agent_iterate_memory_pools)                           \
  X(hsa_amd_memory_pool_get_info) X(hsa_amd_memory_pool_allocate) X(hsa_amd_memory_pool_free)                       \
  X(hsa_amd_agents_allow_access) X(hsa_memory_copy) X(hsa_amd_memory_fill)                                          \
  X(hsa_signal_create) X(hsa_signal_store_screlease) X(hsa_signal_store_relaxed) X(hsa_signal_wait_scacquire)       \
  X(hsa_signal_load_scacquire)                                                                                       \
  X(hsa_queue_create) X(hsa_queue_add_write_index_scacq_screl) X(hsa_queue_load_read_index_scacquire)               \
  X(hsa_code_object_reader_create_from_memory) X(hsa_code_object_reader_destroy)                                    \
  X(hsa_executable_create_alt) X(hsa_executable_destroy) X(hsa_executable_load_agent_code_object)                   \
  X(hsa_executable_freeze) X(hsa_executable_get_symbol_by_name) X(hsa_executable_symbol_get_info)
  // clang-format on
#define ONEPASS_HSA_MEMBER(name) decltype(&::name) name = nullptr;
  ONEPASS_HSA_FUNCTIONS(ONEPASS_HSA_MEMBER)
#undef ONEPASS_HSA_MEMBER

  // Loads the runtime; false with `why` if it or a function is missing.
  bool load(std::string &why);
};

extern Api api;

// "hsa_queue_create failed: HSA_STATUS_ERROR_OUT_OF_RESOURCES: ... (0x1008)",
// for messages: the call and the runtime's own words for the status.
std::string failed(const char *call, hsa_status_t status);

}  // namespace onepass::hsa
