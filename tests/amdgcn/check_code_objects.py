#!/usr/bin/env python3
"""Issue 18: every kernel of the end-to-end test programs lowers to an AMD GPU
code object for each of gfx90a, gfx942, gfx1030 and gfx1100, whose metadata
(llvm-readobj --notes) names the kernel entry, has the kernel arguments the
SPIR-V/AMDGCN ABI says (jit_api.h: the fields, then a range kernel's range)
and at least the kernel's static local memory in its group segment.

usage: check_code_objects.py <onepass-jit> <onepass-kernels> <llvm-readobj>
                             <programs dir> <external libs dir> <work dir> [--archs=a,b]

A kernel may instead fail with the errors OnePass documents for AMDGCN
(README): printf (not lowered for AMD GPUs yet), and more static local memory
than the architecture has (the backend's error, reported as the kernel's). Any failure, crash or mismatch fails the test."""
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys

ARCHS = ["gfx90a", "gfx942", "gfx1030", "gfx1100"]
jit, kernels_tool, readobj, programs, external, work = sys.argv[1:7]
# --archs=a,b: fewer architectures (the sanitizer build's run: the JIT runs
# the same code for each, and one is enough to find its memory errors).
for option in sys.argv[7:]:
    if option.startswith("--archs="):
        ARCHS = option[len("--archs="):].split(",")
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)


def listing(program):
    """Kernels as onepass-kernels lists them: {(image, kernel): record}."""
    out = subprocess.run([kernels_tool, program], capture_output=True, text=True, check=True).stdout
    kernels, image, current = {}, None, None
    for line in out.splitlines():
        if m := re.match(r"image (\d+):", line):
            image = int(m.group(1))
        elif m := re.match(r"\s+kernel (\d+): (.*)", line):
            current = {"name": m.group(2), "fields": [], "local": 0, "kind": None, "dims": 0}
            kernels[(image, int(m.group(1)))] = current
        elif m := re.match(r"\s+kind: (\w+), dimensions: (\d+)", line):
            current["kind"], current["dims"] = m.group(1), int(m.group(2))
        elif m := re.match(r"\s+field \d+: offset \d+, size (\d+)", line):
            current["fields"].append(int(m.group(1)))
        elif m := re.match(r"\s+group local memory: (\d+) bytes", line):
            current["local"] = int(m.group(1))
    return kernels


def expected_arguments(record):
    sizes = list(record["fields"])
    if record["kind"] == "parallel_for":
        sizes += [8] * record["dims"]
    return sizes


def check(name, arch):
    """Lowers one program for one architecture: (report lines, objects, documented, failures)."""
    program = os.path.join(programs, name)
    kernels = listing(program)
    libraries = [os.path.join(external, "libonepass_ext_shared.so")] if name == "sycl-external" else []
    lines, objects, documented, failures = [], 0, 0, 0
    out = os.path.join(work, f"{name}-{arch}")
    run = subprocess.run([jit, "--target=amdgcn", f"--arch={arch}", program, *libraries, "-o", out],
                         capture_output=True, text=True)
    failed = re.findall(r"^FAILED (\d+):(\d+) .*\n\s+(.*)$", run.stdout, re.M)
    for image, kernel, message in failed:
        if name == "sycl-external" and "ext_host_only" in message:
            continue  # defined in host code only, on purpose (external_main.cpp)
        if "calls printf, which OnePass does not lower for AMD GPUs yet" in message:
            documented += 1
            continue
        if re.search(r"local memory \(\d+\) exceeds limit", message):
            documented += 1  # local_memory.cpp's deliberately too large group_local_memory
            continue
        lines.append(f"FAIL {name} {arch} kernel {image}:{kernel}: {message}")
        failures += 1
    if run.returncode not in (0, 1):
        lines.append(f"FAIL {name} {arch}: onepass-jit exited {run.returncode}\n{run.stderr[-2000:]}")
        return lines, objects, documented, failures + 1
    reported = {(int(i), int(k)) for i, k, _ in failed}
    for (image, kernel), record in kernels.items():
        path = os.path.join(out, f"{image}.{kernel}.hsaco")
        if not os.path.exists(path):
            if (image, kernel) not in reported:
                lines.append(f"FAIL {name} {arch} kernel {image}:{kernel}: no code object and no error "
                             f"(onepass-jit exited {run.returncode}: {run.stderr.strip()[-300:]})")
                failures += 1
            continue
        objects += 1
        notes = subprocess.run([readobj, "--notes", path], capture_output=True, text=True).stdout
        problems = []
        if ".name:           __onepass_amdgcn_kernel" not in notes:
            problems.append("no kernel named __onepass_amdgcn_kernel")
        args = [int(s) for s in re.findall(r"\.size:\s+(\d+)\n\s+\.value_kind:\s+(?:by_value|global_buffer)", notes)]
        if args != expected_arguments(record):
            problems.append(f"arguments of {args} bytes, expected {expected_arguments(record)}")
        lds = re.search(r"\.group_segment_fixed_size:\s+(\d+)", notes)
        if not lds or int(lds.group(1)) < record["local"]:
            problems.append(f"group segment {lds.group(1) if lds else '?'} bytes < {record['local']}")
        if problems:
            lines.append(f"FAIL {name} {arch} kernel {image}:{kernel} ({record['name']}): {'; '.join(problems)}")
            failures += 1
    return lines, objects, documented, failures


names = [name for name in sorted(os.listdir(programs))
         if name.startswith("sycl-") and not name.endswith("_O0") and name != "sycl-gpu_probe"]
# One onepass-jit per program and architecture, as many at once as there are cores.
with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
    results = list(pool.map(lambda job: check(*job), [(name, arch) for name in names for arch in ARCHS]))
failures, objects, documented = 0, 0, 0
for lines, checked, known, failed in results:
    for line in lines:
        print(line)
    objects += checked
    documented += known
    failures += failed
print(f"{objects} code objects checked ({len(ARCHS)} architectures: {', '.join(ARCHS)}); {failures} problems; "
      f"{documented} not lowered, as documented (printf, too much local memory)")
if objects < 500 * len(ARCHS):
    print("FAIL: fewer code objects than expected")
    failures += 1
sys.exit(1 if failures else 0)
