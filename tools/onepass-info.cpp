// onepass-info (issue 19): what OnePass sees on this machine. Every backend,
// found or not and why not; every device with its info descriptors, its
// aspects and the ONEPASS_DEVICE_SELECTOR term that picks it; with --config,
// the OnePass environment variables in effect.
//
//   onepass-info [--json] [--config] [--backend <name>] [--device <selector>]
//
// --json prints one JSON object (schema in README.md, "onepass-info").
// --device takes what ONEPASS_DEVICE_SELECTOR takes (and stands for it);
// --backend cpu|cuda|opencl|level_zero|hip shows one backend, loading an
// experimental one. The exit status is 1 when a backend or device asked for
// is not there, 2 for a bad command line, else 0.
#include <sycl/sycl.hpp>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

std::string lowercase(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

std::string jsonString(const std::string &text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') out += std::string("\\") + static_cast<char>(c);
    else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else out += static_cast<char>(c);
  }
  return out + "\"";
}

const char *aspectName(sycl::aspect a) {
  using sycl::aspect;
  switch (a) {
  case aspect::cpu: return "cpu";
  case aspect::gpu: return "gpu";
  case aspect::accelerator: return "accelerator";
  case aspect::custom: return "custom";
  case aspect::emulated: return "emulated";
  case aspect::host_debuggable: return "host_debuggable";
  case aspect::fp16: return "fp16";
  case aspect::fp64: return "fp64";
  case aspect::atomic64: return "atomic64";
  case aspect::image: return "image";
  case aspect::online_compiler: return "online_compiler";
  case aspect::online_linker: return "online_linker";
  case aspect::queue_profiling: return "queue_profiling";
  case aspect::usm_device_allocations: return "usm_device_allocations";
  case aspect::usm_host_allocations: return "usm_host_allocations";
  case aspect::usm_atomic_host_allocations: return "usm_atomic_host_allocations";
  case aspect::usm_shared_allocations: return "usm_shared_allocations";
  case aspect::usm_atomic_shared_allocations: return "usm_atomic_shared_allocations";
  case aspect::usm_system_allocations: return "usm_system_allocations";
  }
  return "?";
}

// The backends, by the words ONEPASS_DEVICE_SELECTOR uses.
constexpr const char *kBackends[] = {"cpu", "cuda", "opencl", "level_zero", "hip"};

// One device as onepass-info shows it.
struct DeviceRecord {
  std::string selector;  // the ONEPASS_DEVICE_SELECTOR term that picks it
  std::string backend;
  sycl::device device;
};

// The environment variables OnePass reads (README.md, "Environment variables").
const char *const kVariables[] = {"ONEPASS_DEVICE",
                                  "ONEPASS_DEVICE_SELECTOR",
                                  "ONEPASS_CPU_THREADS",
                                  "ONEPASS_GPU_STREAMS",
                                  "ONEPASS_SPIN",
                                  "ONEPASS_GPU_FEEDER",
                                  "ONEPASS_LOG",
                                  "ONEPASS_LOG_FILE",
                                  "ONEPASS_JIT_LIBRARY",
                                  "ONEPASS_CACHE_DIR",
                                  "ONEPASS_CACHE_MAX_SIZE",
                                  "ONEPASS_CACHE_READONLY_DIRS",
                                  "ONEPASS_CACHE_WRITE",
                                  "ONEPASS_CACHE",
                                  "ONEPASS_JIT_WARMUP",
                                  "ONEPASS_CUDA_PATH",
                                  "ONEPASS_ROCM_DEVICE_LIBS",
                                  "ONEPASS_DUMP_DIR",
                                  "ONEPASS_JIT_LLVM_ARGS",
                                  "ONEPASS_CLANGXX"};

int usage(const char *problem) {
  std::fprintf(stderr,
               "onepass-info: %s\nusage: onepass-info [--json] [--config] [--backend cpu|cuda|opencl|level_zero|hip] "
               "[--device <selector>]\n",
               problem);
  return 2;
}

}  // namespace

int main(int argc, char **argv) {
  bool json = false, config = false;
  std::string wantBackend, wantDevice;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--json") json = true;
    else if (arg == "--config") config = true;
    else if ((arg == "--backend" || arg == "--device") && i + 1 < argc)
      (arg == "--backend" ? wantBackend : wantDevice) = lowercase(argv[++i]);
    else if (arg == "--help" || arg == "-h") return usage("lists the backends and devices OnePass sees"), 0;
    else return usage(("unknown argument '" + arg + "'").c_str());
  }
  if (!wantBackend.empty() && std::find(std::begin(kBackends), std::end(kBackends), wantBackend) == std::end(kBackends))
    return usage(
        ("--backend '" + wantBackend + "': OnePass has the backends cpu, cuda, opencl, level_zero and hip").c_str());
  // The runtime applies the selection itself (the grammar is its own), and
  // loads an experimental backend a term names.
  if (!wantDevice.empty()) setenv("ONEPASS_DEVICE_SELECTOR", wantDevice.c_str(), 1);
  else if (!wantBackend.empty() && !std::getenv("ONEPASS_DEVICE_SELECTOR"))
    setenv("ONEPASS_DEVICE_SELECTOR", (wantBackend + ":*").c_str(), 1);

  std::vector<DeviceRecord> devices;
  std::vector<std::string> missing;  // why a backend or device is not seen
  try {
    for (const sycl::platform &platform : sycl::platform::get_platforms())
      for (const sycl::device &device : platform.get_devices()) {
        const std::string term = sycl::detail::get_device_properties(*device.impl()).selector_term;
        devices.push_back({term, term.substr(0, term.find(':')), device});
      }
  } catch (const sycl::exception &e) {
    std::fprintf(stderr, "onepass-info: %s%s\n", wantDevice.empty() ? "" : "--device: ", e.what());
    return wantDevice.empty() ? 1 : 2;
  }
  const std::string absent = sycl::detail::describe_absent_backends();
  for (std::size_t start = 0;
       start < absent.size();) {  // lines joined by "; " before a capitalized backend or a selector
    std::size_t next = absent.find("; ", start);
    while (next != std::string::npos && !(std::isupper(static_cast<unsigned char>(absent[next + 2])) ||
                                          absent.compare(next + 2, 8, "ONEPASS_") == 0))
      next = absent.find("; ", next + 2);
    missing.push_back(absent.substr(start, next == std::string::npos ? std::string::npos : next - start));
    start = next == std::string::npos ? absent.size() : next + 2;
  }

  // The filters.
  int status = 0;
  auto backendSeen = [&](const std::string &name) {
    return std::any_of(devices.begin(), devices.end(), [&](const DeviceRecord &d) { return d.backend == name; });
  };
  if (!wantBackend.empty()) {
    devices.erase(
        std::remove_if(devices.begin(), devices.end(), [&](const DeviceRecord &d) { return d.backend != wantBackend; }),
        devices.end());
    if (devices.empty()) status = 1;
  }
  if (!wantDevice.empty() && devices.empty()) status = 1;  // (the runtime selected them)

  using namespace sycl::info;
  // (No platform is left when the selector leaves no device.)
  const std::vector<sycl::platform> platforms = sycl::platform::get_platforms();
  const std::string version =
      platforms.empty() ? std::string("OnePass (SYCL 2020)") : platforms.front().get_info<platform::version>();
  if (json) {
    std::printf("{\n  \"schema\": 1,\n  \"version\": %s,\n  \"backends\": [\n", jsonString(version).c_str());
    // (The reasons name backends as people write them: "Level Zero: ...".)
    const char *labels[] = {"cpu", "cuda", "opencl", "level zero", "hsa"};
    constexpr std::size_t count = std::size(kBackends);
    for (std::size_t b = 0; b < count; ++b) {
      std::string why;
      for (const std::string &line : missing)
        if (lowercase(line).compare(0, std::strlen(labels[b]) + 1, std::string(labels[b]) + ":") == 0) why = line;
      std::printf("    {\"name\": \"%s\", \"found\": %s, \"reason\": %s}%s\n", kBackends[b],
                  backendSeen(kBackends[b]) || why.empty() ? "true" : "false", jsonString(why).c_str(),
                  b + 1 < count ? "," : "");
    }
    std::printf("  ],\n  \"not_seen\": [");
    for (std::size_t i = 0; i < missing.size(); ++i) std::printf("%s%s", i ? ", " : "", jsonString(missing[i]).c_str());
    std::printf("],\n  \"devices\": [\n");
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const sycl::device &d = devices[i].device;
      const auto sizes = d.get_info<device::max_work_item_sizes<3>>();
      std::string aspects, subGroups;
      for (sycl::aspect a : d.get_info<device::aspects>())
        aspects += (aspects.empty() ? "" : ", ") + jsonString(aspectName(a));
      for (std::size_t s : d.get_info<device::sub_group_sizes>())
        subGroups += (subGroups.empty() ? "" : ", ") + std::to_string(s);
      std::printf("    {\"selector\": %s, \"backend\": %s, \"type\": \"%s\", \"name\": %s, \"vendor\": %s, "
                  "\"driver_version\": %s, \"max_compute_units\": %u, \"max_clock_frequency\": %u, "
                  "\"max_work_group_size\": %zu, \"max_work_item_sizes\": [%zu, %zu, %zu], \"sub_group_sizes\": [%s], "
                  "\"global_mem_size\": %llu, \"max_mem_alloc_size\": %llu, \"local_mem_size\": %llu, "
                  "\"aspects\": [%s]}%s\n",
                  jsonString(devices[i].selector).c_str(), jsonString(devices[i].backend).c_str(),
                  d.is_gpu() ? "gpu" : "cpu", jsonString(d.get_info<device::name>()).c_str(),
                  jsonString(d.get_info<device::vendor>()).c_str(),
                  jsonString(d.get_info<device::driver_version>()).c_str(),
                  static_cast<unsigned>(d.get_info<device::max_compute_units>()),
                  static_cast<unsigned>(d.get_info<device::max_clock_frequency>()),
                  static_cast<std::size_t>(d.get_info<device::max_work_group_size>()), sizes[0], sizes[1], sizes[2],
                  subGroups.c_str(), static_cast<unsigned long long>(d.get_info<device::global_mem_size>()),
                  static_cast<unsigned long long>(d.get_info<device::max_mem_alloc_size>()),
                  static_cast<unsigned long long>(d.get_info<device::local_mem_size>()), aspects.c_str(),
                  i + 1 < devices.size() ? "," : "");
    }
    std::printf("  ]");
    if (config) {
      std::printf(",\n  \"config\": {");
      bool first = true;
      for (const char *name : kVariables) {
        const char *value = std::getenv(name);
        std::printf("%s\n    \"%s\": %s", first ? "" : ",", name, value ? jsonString(value).c_str() : "null");
        first = false;
      }
      std::printf("\n  }");
    }
    std::printf("\n}\n");
    return status;
  }

  std::printf("%s\n\nBackends:\n", version.c_str());
  for (const char *name : kBackends) {
    const auto count =
        std::count_if(devices.begin(), devices.end(), [&](const DeviceRecord &d) { return d.backend == name; });
    if (backendSeen(name)) std::printf("  %-10s found, %ld device(s)\n", name, static_cast<long>(count));
  }
  for (const std::string &line : missing) std::printf("  not seen: %s\n", line.c_str());
  std::printf("\nDevices:\n");
  if (devices.empty()) std::printf("  (none%s)\n", status ? " matches the request" : "");
  for (const DeviceRecord &record : devices) {
    const sycl::device &d = record.device;
    const auto sizes = d.get_info<device::max_work_item_sizes<3>>();
    std::string aspects, subGroups;
    for (sycl::aspect a : d.get_info<device::aspects>())
      aspects += (aspects.empty() ? "" : " ") + std::string(aspectName(a));
    for (std::size_t s : d.get_info<device::sub_group_sizes>())
      subGroups += (subGroups.empty() ? "" : " ") + std::to_string(s);
    std::printf("  [%s] %s (%s, %s)\n", record.selector.c_str(), d.get_info<device::name>().c_str(),
                d.is_gpu() ? "gpu" : "cpu", d.get_info<device::vendor>().c_str());
    std::printf("      driver %s; %u compute units at %u MHz\n", d.get_info<device::driver_version>().c_str(),
                static_cast<unsigned>(d.get_info<device::max_compute_units>()),
                static_cast<unsigned>(d.get_info<device::max_clock_frequency>()));
    std::printf("      work-groups up to %zu (%zu x %zu x %zu); sub-groups of %s\n",
                static_cast<std::size_t>(d.get_info<device::max_work_group_size>()), sizes[0], sizes[1], sizes[2],
                subGroups.c_str());
    std::printf("      memory %.1f GiB global (allocations up to %.1f GiB), %.0f KiB local per work-group\n",
                d.get_info<device::global_mem_size>() / 1073741824.0,
                d.get_info<device::max_mem_alloc_size>() / 1073741824.0, d.get_info<device::local_mem_size>() / 1024.0);
    std::printf("      aspects: %s\n", aspects.c_str());
    std::printf("      pick it with ONEPASS_DEVICE_SELECTOR=%s\n", record.selector.c_str());
  }
  if (config) {
    std::printf("\nEnvironment (README.md, \"Environment variables\"):\n");
    for (const char *name : kVariables) {
      const char *value = std::getenv(name);
      std::printf("  %-24s %s\n", name, value ? value : "(not set: the default)");
    }
  }
  return status;
}
