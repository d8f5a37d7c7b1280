// The annotation through which the frontend plugin hands a kernel's parameter
// layout to the stage-1 pass. The frontend adds it to each kernel entry
// instantiation as `annotate("onepass.layout\n...")`; clang emits it into
// `llvm.global.annotations`, where the pass reads it back. Both sides live in
// this one plugin, so the format is private to it.
//
//   onepass.layout\n<objectSize>\n<objectAlign>\n<line>\n<column>\n<dimensions>\n<attributes>\n<fields>\n<file>\n<display name>
//   attributes: <wg0> <wg1> <wg2> <sg>, the required work-group size per
//               dimension and sub-group size (0: none; KernelAttributes.h)
//   fields: space-separated <kind><offset>:<size>[c], kind P (pointer), I (integer), F (float);
//           a trailing c marks a launch constant (image::kFieldLaunchConstant),
//           l a local accessor's field (image::kFieldLocalAccessor)
#pragma once

#include "KernelImage.h"

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace onepass::sscp {

inline constexpr const char *kKernelAnnotationPrefix = "onepass.kernel.";
inline constexpr const char *kLayoutAnnotationPrefix = "onepass.layout\n";
inline constexpr const char *kSyclExternalAnnotation = "onepass.sycl_external";

struct KernelLayout {
  uint32_t objectSize = 0;
  uint32_t objectAlign = 1;
  uint32_t line = 0;
  uint32_t column = 0;
  uint32_t dimensions = 1;
  uint32_t reqdWorkGroupSize[3] = {0, 0, 0};
  uint32_t reqdSubGroupSize = 0;
  uint32_t hierarchical = 0;  // 1: a parallel_for_work_group kernel (image::kFeatureHierarchical)
  uint32_t deviceHas = 0;     // 1: [[sycl::device_has]] written; requiredAspects its aspects
  uint64_t requiredAspects = 0;
  std::vector<image::FieldDesc> fields;
  std::string file;
  std::string displayName;
};

inline std::string encodeLayout(const KernelLayout &layout) {
  std::ostringstream out;
  out << kLayoutAnnotationPrefix << layout.objectSize << '\n'
      << layout.objectAlign << '\n'
      << layout.line << '\n'
      << layout.column << '\n'
      << layout.dimensions << '\n'
      << layout.reqdWorkGroupSize[0] << ' ' << layout.reqdWorkGroupSize[1] << ' ' << layout.reqdWorkGroupSize[2] << ' '
      << layout.reqdSubGroupSize << ' ' << layout.hierarchical << ' ' << layout.deviceHas << ' '
      << layout.requiredAspects << '\n';
  for (size_t i = 0; i < layout.fields.size(); ++i) {
    const image::FieldDesc &f = layout.fields[i];
    char kind = f.kind == image::FieldKind::Pointer ? 'P' : f.kind == image::FieldKind::Float ? 'F' : 'I';
    out << (i ? " " : "") << kind << f.offset << ':' << f.size;
    if (f.flags & image::kFieldLaunchConstant) out << 'c';
    if (f.flags & image::kFieldLocalAccessor) out << 'l';
  }
  out << '\n' << layout.file << '\n' << layout.displayName;
  return out.str();
}

inline bool decodeLayout(const std::string &text, KernelLayout &layout) {
  std::string prefix(kLayoutAnnotationPrefix);
  if (text.compare(0, prefix.size(), prefix) != 0) return false;
  std::istringstream in(text.substr(prefix.size()));
  std::string line;
  auto nextNumber = [&](uint32_t &value) {
    if (!std::getline(in, line) || line.empty()) return false;
    char *end = nullptr;
    value = static_cast<uint32_t>(std::strtoul(line.c_str(), &end, 10));
    return *end == '\0';
  };
  if (!nextNumber(layout.objectSize) || !nextNumber(layout.objectAlign) || !nextNumber(layout.line) ||
      !nextNumber(layout.column) || !nextNumber(layout.dimensions))
    return false;
  if (!std::getline(in, line)) return false;
  {
    std::istringstream attributes(line);
    if (!(attributes >> layout.reqdWorkGroupSize[0] >> layout.reqdWorkGroupSize[1] >> layout.reqdWorkGroupSize[2] >>
          layout.reqdSubGroupSize >> layout.hierarchical >> layout.deviceHas >> layout.requiredAspects))
      return false;
  }
  if (!std::getline(in, line)) return false;
  std::istringstream fields(line);
  std::string token;
  while (fields >> token) {
    image::FieldDesc f;
    f.kind = token[0] == 'P'   ? image::FieldKind::Pointer
             : token[0] == 'F' ? image::FieldKind::Float
                               : image::FieldKind::Integer;
    size_t colon = token.find(':');
    if (colon == std::string::npos) return false;
    f.offset = static_cast<uint32_t>(std::strtoul(token.c_str() + 1, nullptr, 10));
    char *end = nullptr;
    f.size = static_cast<uint32_t>(std::strtoul(token.c_str() + colon + 1, &end, 10));
    for (; *end; ++end) {
      if (*end == 'c') f.flags |= image::kFieldLaunchConstant;
      else if (*end == 'l') f.flags |= image::kFieldLocalAccessor;
      else return false;
    }
    layout.fields.push_back(f);
  }
  if (!std::getline(in, layout.file)) return false;
  std::getline(in, layout.displayName, '\0');
  return true;
}

}  // namespace onepass::sscp
