// Every environment variable the runtime reads, read here and only here
// (README.md documents them). The one exception: the CUDA backend plugin looks
// for the CUDA toolkit through ONEPASS_CUDA_PATH, CUDA_PATH and CUDA_HOME
// (runtime/backends/cuda/CudaToolkit.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace onepass::rt::env {

// ONEPASS_LOG: error | warning | info | debug.
std::string logLevel();
// ONEPASS_LOG_FILE: where log messages go (%p pid, %r MPI rank), else stderr.
std::string logFile();
// ONEPASS_DEVICE: which device the default selector prefers ("cpu", "gpu").
std::string deviceSelection();
// ONEPASS_DEVICE_SELECTOR: which devices the program sees at all (Platform.cpp).
std::string deviceSelector();
// ONEPASS_JIT_LIBRARY: path of libonepass-jit.so, overriding the installed one.
std::string jitLibrary();
// ONEPASS_JIT_LLVM_ARGS: options of the JIT's own LLVM (the JIT reads them;
// the kernel provider makes them part of the persistent cache's keys, since
// they may change the code).
std::string jitLlvmArgs();
// ONEPASS_CACHE: "0", "off" or "false" turn the persistent kernel cache off.
bool cacheEnabled();
// ONEPASS_CACHE_DIR, else $XDG_CACHE_HOME/onepass, else $HOME/.cache/onepass.
std::string cacheDirectory();
// ONEPASS_CACHE_MAX_SIZE: the cache's cap in bytes (suffixes K, M, G, T:
// binary); 0 for none. Default 4 GiB; a malformed value means the default.
uint64_t cacheMaxSize();
// ONEPASS_CACHE_READONLY_DIRS: site caches (colon-separated), searched after
// the user's and never written.
std::vector<std::string> cacheReadOnlyDirectories();
// ONEPASS_CACHE_WRITE: "", "1", "0" or "rank0".
std::string cacheWrite();
// The MPI rank from the variables launchers set (Open MPI, PMIx, MPICH's
// PMI, MVAPICH, Slurm), or "0".
std::string mpiRank();
// A size in bytes, maybe with K, M, G or T (binary; "Ki", "B" accepted too).
bool parseSize(const std::string &value, uint64_t &bytes);
// ONEPASS_CPU_THREADS: worker threads of the CPU device (default: all cores).
unsigned cpuThreads();
// ONEPASS_GPU_STREAMS: asynchronous streams per GPU (default: the backend's
// choice; 0 runs every GPU operation synchronously). `fallback` if unset or
// not a number from 0 to 64.
unsigned gpuStreams(unsigned fallback);
// ONEPASS_JIT_WARMUP: "0"/"off"/"false" keep the JIT from preparing LLVM on
// a background thread when a GPU is found (default: on).
bool jitWarmUp();
// ONEPASS_IMAGE_TEXTURES: "0"/"off"/"false" sample images in software on
// devices with texture hardware too (default: on).
bool imageTextures();
// ONEPASS_SPIN: "1"/"on" or "0"/"off": whether runtime threads spin briefly
// before sleeping (`fallback` if unset or neither).
bool spin(bool fallback);
// ONEPASS_GPU_FEEDER: whether a feeder thread makes the driver calls of
// back-to-back GPU commands (StreamTracker.h): "1"/"on", "0"/"off", or
// "always" (every command's, a testing aid); `fallback` (on or off) if unset
// or none of these.
enum class Feeder { Off, BackToBack, Always };
Feeder gpuFeeder(bool fallback);

}  // namespace onepass::rt::env
