// Target machines kept between compiles. A TargetMachine costs a millisecond
// (NVPTX) to over ten (AMDGPU, whose subtarget builds its register tables,
// reserved registers and alias caches on first use) to create and warm up:
// a finished compile hands its machine back for the next compile with the
// same key (the target's architecture and options), one compile at a time
// per machine. Each machine keeps its code-generation pipelines too
// (CodegenPipeline, one per output kind), used by the compile that holds it.
#pragma once

#include "Codegen.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>

namespace onepass::jit {

class MachinePool {
public:
  // A machine lent to one compile; back to the pool when the lease ends.
  class Lease {
  public:
    Lease(MachinePool *pool, std::string key, std::unique_ptr<llvm::TargetMachine> machine)
        : pool_(pool), key_(std::move(key)), machine_(std::move(machine)) {}
    Lease(Lease &&) = default;
    Lease &operator=(Lease &&) = delete;
    ~Lease() {
      if (!machine_) return;
      std::lock_guard<std::mutex> lock(pool_->mutex_);
      pool_->idle_.emplace(std::move(key_), std::move(machine_));
    }
    llvm::TargetMachine &machine() const { return *machine_; }

  private:
    MachinePool *pool_;
    std::string key_;
    std::unique_ptr<llvm::TargetMachine> machine_;
  };

  using Factory = llvm::function_ref<llvm::Expected<std::unique_ptr<llvm::TargetMachine>>()>;

  // An idle machine of `key`, or a new one from `create`.
  llvm::Expected<Lease> acquire(const std::string &key, Factory create) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto found = idle_.find(key); found != idle_.end()) {
        Lease lease(this, key, std::move(found->second));
        idle_.erase(found);
        return lease;
      }
    }
    llvm::Expected<std::unique_ptr<llvm::TargetMachine>> created = create();
    if (!created) return created.takeError();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      pipelines_[created->get()];  // one of the pool's machines from now on
    }
    return Lease(this, key, std::move(*created));
  }

  // The pipeline writing `type` with `machine`, built on first use, if the
  // machine is one of the pool's (null if not: the caller builds its own).
  // The caller holds the machine's lease, which makes the pipeline its own.
  llvm::Expected<CodegenPipeline *> pipeline(llvm::TargetMachine &machine, llvm::CodeGenFileType type) {
    std::unique_ptr<CodegenPipeline> *slot;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      auto found = pipelines_.find(&machine);
      if (found == pipelines_.end()) return nullptr;
      slot = &found->second[type];
    }
    if (!*slot) {
      llvm::Expected<std::unique_ptr<CodegenPipeline>> created = CodegenPipeline::create(machine, type);
      if (!created) return created.takeError();
      *slot = std::move(*created);
    }
    return slot->get();
  }

  // The JIT's one pool (its machines live as long as the process).
  static MachinePool &instance() {
    static MachinePool *pool = new MachinePool;  // (never destroyed: compiles may run at exit)
    return *pool;
  }

private:
  std::mutex mutex_;
  std::multimap<std::string, std::unique_ptr<llvm::TargetMachine>> idle_;
  // Every machine the pool made (they live as long as the process), with its pipelines.
  std::map<const llvm::TargetMachine *, std::map<llvm::CodeGenFileType, std::unique_ptr<CodegenPipeline>>> pipelines_;
};

}  // namespace onepass::jit
