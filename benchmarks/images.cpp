// Sampled images on texture hardware against OnePass's software sampler: a
// 2x bilinear upscale (sampled_image, linear filtering, clamp_to_edge,
// normalized coordinates) of a float4 image, every output texel one sampled
// read. The program runs itself twice per round, alternately as is and with
// ONEPASS_IMAGE_TEXTURES=0 (the software sampler on every device), and prints
// the best kernel time of each and the ratio software / texture (above 1.0:
// the texture unit is faster). The two outputs' checksums must agree within
// the texture unit's filtering precision (8-bit weights). Best of 5 rounds
// of 10 launches a process, 3 processes each.
// Second figure: a copy of a width x width float4 unsampled_image (reads at
// integer coordinates: on NVIDIA GPUs texture fetches of the image's memory
// in place), against the same in the software run (plain loads); ratio
// software / texture. Also printed: the same copy through a sampled_image
// read nearest at texel centres (a CUDA array on NVIDIA GPUs).
//   ONEPASS_DEVICE=gpu benchmarks/programs/images [width, default 2048]
#include "timing.h"

#include <sycl/sycl.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Result {
  double seconds = 0;
  double checksum = 0;
  double unsampledSeconds = 0, nearestSeconds = 0;  // the second figure
  bool ok = false;
};

template <typename Launch> double bestOf(sycl::queue &q, Launch launch) {
  return bench::bestPerLaunch(5, 10, launch, [&] { q.wait(); });
}

// The copies of the second figure; false if their results differ.
bool copies(sycl::queue &q, std::vector<float> texels, std::size_t width, Result &r) {
  const sycl::range<2> extent(width, width);
  sycl::unsampled_image<2> plain(texels.data(), sycl::image_format::r32g32b32a32_sfloat, extent);
  sycl::sampled_image<2> fetched(texels.data(), sycl::image_format::r32g32b32a32_sfloat,
                                 {sycl::addressing_mode::clamp_to_edge,
                                  sycl::coordinate_normalization_mode::unnormalized, sycl::filtering_mode::nearest},
                                 extent);
  sycl::buffer<sycl::float4, 2> a(extent), b(extent);
  r.unsampledSeconds = bestOf(q, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::unsampled_image_accessor<sycl::float4, 2, sycl::access_mode::read> in(plain, h);
      sycl::accessor o(a, h, sycl::write_only, sycl::no_init);
      h.parallel_for(extent, [=](sycl::item<2> it) {
        o[it] = in.read(sycl::int2{static_cast<int>(it[1]), static_cast<int>(it[0])});
      });
    });
  });
  r.nearestSeconds = bestOf(q, [&] {
    q.submit([&](sycl::handler &h) {
      sycl::sampled_image_accessor<sycl::float4, 2> in(fetched, h);
      sycl::accessor o(b, h, sycl::write_only, sycl::no_init);
      h.parallel_for(extent, [=](sycl::item<2> it) {
        o[it] = in.read(sycl::float2{static_cast<float>(it[1]) + 0.5f, static_cast<float>(it[0]) + 0.5f});
      });
    });
  });
  sycl::host_accessor ha(a, sycl::read_only), hb(b, sycl::read_only);
  for (std::size_t y = 0; y < width; y += 3)
    for (std::size_t x = 0; x < width; x += 5)
      for (int c = 0; c < 4; ++c)
        if (ha[y][x][c] != hb[y][x][c]) return false;
  return true;
}

Result runChild(std::size_t width) {
  const std::size_t height = width, outW = 2 * width, outH = 2 * height;
  std::vector<float> texels(4 * width * height);
  for (std::size_t i = 0; i < texels.size(); ++i) texels[i] = static_cast<float>((i * 7919) % 1000) * 0.001f;
  sycl::queue q;
  sycl::sampled_image<2> image(texels.data(), sycl::image_format::r32g32b32a32_sfloat,
                               {sycl::addressing_mode::clamp_to_edge, sycl::coordinate_normalization_mode::normalized,
                                sycl::filtering_mode::linear},
                               sycl::range<2>(width, height));
  sycl::buffer<sycl::float4, 2> out(sycl::range<2>(outH, outW));
  auto launch = [&] {
    q.submit([&](sycl::handler &h) {
      sycl::sampled_image_accessor<sycl::float4, 2> in(image, h);
      sycl::accessor o(out, h, sycl::write_only, sycl::no_init);
      const float sx = 1.0f / static_cast<float>(outW), sy = 1.0f / static_cast<float>(outH);
      h.parallel_for(sycl::range<2>(outH, outW), [=](sycl::item<2> it) {
        const float x = (static_cast<float>(it[1]) + 0.5f) * sx, y = (static_cast<float>(it[0]) + 0.5f) * sy;
        o[it] = in.read(sycl::float2{x, y});
      });
    });
  };
  Result r;
  r.seconds = bestOf(q, launch);
  {
    sycl::host_accessor h(out, sycl::read_only);
    for (std::size_t y = 0; y < outH; y += 7)
      for (std::size_t x = 0; x < outW; x += 5) r.checksum += h[y][x].x() + h[y][x].w();
  }
  r.ok = copies(q, texels, width, r);
  if (!r.ok) std::fprintf(stderr, "images: the two copies differ\n");
  std::printf("%s seconds %.9f checksum %.6f copies %.9f %.9f\n",
              q.get_device().get_info<sycl::info::device::name>().c_str(), r.seconds, r.checksum, r.unsampledSeconds,
              r.nearestSeconds);
  return r;
}

Result runProcess(const std::string &self, std::size_t width, bool software) {
  const std::string command = std::string(software ? "ONEPASS_IMAGE_TEXTURES=0 " : "") + "'" + self + "' --child " +
                              std::to_string(width);
  Result r;
  FILE *pipe = popen(command.c_str(), "r");
  if (!pipe) return r;
  char line[512];
  while (std::fgets(line, sizeof line, pipe)) {
    const char *at = std::strstr(line, " seconds ");
    if (at && std::sscanf(at, " seconds %lf checksum %lf copies %lf %lf", &r.seconds, &r.checksum, &r.unsampledSeconds,
                          &r.nearestSeconds) == 4)
      r.ok = true;
  }
  if (pclose(pipe) != 0) r.ok = false;
  return r;
}

}  // namespace

int main(int argc, char **argv) {
  const bool child = argc > 1 && std::string(argv[1]) == "--child";
  const char *sizeText = child ? (argc > 2 ? argv[2] : nullptr) : (argc > 1 ? argv[1] : nullptr);
  const std::size_t width = sizeText ? std::strtoull(sizeText, nullptr, 0) : 2048;
  if (width == 0 || width > 16384) {
    std::fprintf(stderr, "images: the width must be 1 to 16384\n");
    return 2;
  }
  if (child) return runChild(width).ok ? 0 : 1;
  std::printf("sampled image 2x bilinear upscale, %zux%zu float4 -> %zux%zu (ONEPASS_DEVICE=%s)\n", width, width,
              2 * width, 2 * width, std::getenv("ONEPASS_DEVICE") ? std::getenv("ONEPASS_DEVICE") : "default");
  Result best[2];
  best[0].seconds = best[1].seconds = 1e30;
  best[0].unsampledSeconds = best[1].unsampledSeconds = best[0].nearestSeconds = 1e30;
  for (int round = 0; round < 3; ++round)
    for (int software = 0; software < 2; ++software) {
      Result r = runProcess(argv[0], width, software);
      if (!r.ok) {
        std::fprintf(stderr, "images: the %s run failed\n", software ? "software" : "texture");
        return 1;
      }
      best[software].checksum = r.checksum;
      best[software].seconds = std::min(best[software].seconds, r.seconds);
      best[software].unsampledSeconds = std::min(best[software].unsampledSeconds, r.unsampledSeconds);
      if (!software) best[0].nearestSeconds = std::min(best[0].nearestSeconds, r.nearestSeconds);
    }
  const double difference = std::fabs(best[0].checksum - best[1].checksum);
  const bool agree = difference <= 1e-3 * std::max(1.0, std::fabs(best[1].checksum));
  std::printf("texture  %10.1f us\nsoftware %10.1f us\nratio software/texture %.2fx; checksums %.4f / %.4f %s\n",
              best[0].seconds * 1e6, best[1].seconds * 1e6, best[1].seconds / best[0].seconds, best[0].checksum,
              best[1].checksum, agree ? "(agree)" : "(DIFFER)");
  std::printf("unsampled_image copy of %zux%zu float4 texels: texture %.1f us, software %.1f us, ratio "
              "software/texture %.2fx (sampled_image read nearest: %.1f us)\n",
              width, width, best[0].unsampledSeconds * 1e6, best[1].unsampledSeconds * 1e6,
              best[1].unsampledSeconds / best[0].unsampledSeconds, best[0].nearestSeconds * 1e6);
  return agree ? 0 : 1;
}
