// Images on NVIDIA's texture units (onepass_backend::image_texture).
// A sampled image (SYCL 2020 §4.7.3.2) is read-only and its sampler is fixed
// at its construction, so each image allocation gets, at its first kernel on
// the device, one CUDA array of the image's format (four channels of every
// SYCL image format map to one of the driver's array formats) holding a copy
// of the allocation's texels, and one texture object with the sampler's
// addressing, filtering and coordinates; both live until the allocation is
// freed. An unsampled image (§4.7.3.1) may change from kernel to kernel, so
// its texture reads the allocation in place (pitched device memory: 1-D and
// 2-D images whose address and row pitch meet the driver's alignment), with
// nearest reads and a border of zeros. The kernel's reads then run on the
// texture unit (jit/builtins/ptx/group.cpp, __onepass_image_texture_read).
// What the hardware does not have (repeat and mirrored_repeat of
// unnormalized coordinates, which SYCL leaves undefined and OnePass's
// software sampler normalizes; an image larger than the device's textures;
// a 3-D or unaligned unsampled image) stays in software.
#include "CudaBackend.h"

namespace onepass::cuda {

namespace {

// sycl::image_format (include/sycl/detail/image_texels.hpp) as an array
// format; `integer`: read as integers, not as normalized floats.
struct ArrayFormat {
  unsigned format = 0;
  unsigned texelBytes = 0;
  bool integer = false;
};
ArrayFormat arrayFormat(uint32_t format) {
  switch (format) {
  case 0: return {CU_AD_FORMAT_UNSIGNED_INT8, 4, false};   // r8g8b8a8_unorm
  case 1: return {CU_AD_FORMAT_UNSIGNED_INT16, 8, false};  // r16g16b16a16_unorm
  case 2: return {CU_AD_FORMAT_SIGNED_INT8, 4, true};      // r8g8b8a8_sint
  case 3: return {CU_AD_FORMAT_SIGNED_INT16, 8, true};     // r16g16b16a16_sint
  case 4: return {CU_AD_FORMAT_SIGNED_INT32, 16, true};    // r32b32g32a32_sint
  case 5: return {CU_AD_FORMAT_UNSIGNED_INT8, 4, true};    // r8g8b8a8_uint
  case 6: return {CU_AD_FORMAT_UNSIGNED_INT16, 8, true};   // r16g16b16a16_uint
  case 7: return {CU_AD_FORMAT_UNSIGNED_INT32, 16, true};  // r32b32g32a32_uint
  case 8: return {CU_AD_FORMAT_HALF, 8, false};            // r16b16g16a16_sfloat
  case 9: return {CU_AD_FORMAT_FLOAT, 16, false};          // r32g32b32a32_sfloat
  case 10: return {CU_AD_FORMAT_UNSIGNED_INT8, 4, false};  // b8g8r8a8_unorm (the kernel swaps red and blue)
  default: return {};
  }
}

// sycl::addressing_mode as the driver's; -1 where the hardware differs.
int addressMode(uint32_t addressing, bool normalized) {
  switch (addressing) {
  case 0: return normalized ? CU_TR_ADDRESS_MODE_MIRROR : -1;  // mirrored_repeat
  case 1: return normalized ? CU_TR_ADDRESS_MODE_WRAP : -1;    // repeat
  case 2: return CU_TR_ADDRESS_MODE_CLAMP;                     // clamp_to_edge
  case 3: return CU_TR_ADDRESS_MODE_BORDER;                    // clamp: the border, zeros (§4.7.8)
  case 4: return CU_TR_ADDRESS_MODE_CLAMP;                     // none: undefined outside; clamped as in software
  default: return -1;
  }
}

bool sameImage(const onepass_backend_image &a, const onepass_backend_image &b) {
  bool same = a.dimensions == b.dimensions && a.format == b.format && a.addressing == b.addressing &&
              a.filtering == b.filtering && a.normalized == b.normalized && a.writable == b.writable;
  for (int d = 0; d < 3; ++d) same = same && a.range[d] == b.range[d];
  return same && a.pitch[0] == b.pitch[0] && a.pitch[1] == b.pitch[1];
}

uint64_t deviceLimit(uint32_t device, DeviceAttribute attribute) {
  int value = 0;
  return backend().api->cuDeviceGetAttribute(&value, attribute, backend().devices[device]->handle) == CUDA_SUCCESS
             ? static_cast<uint64_t>(value)
             : 0;
}

// Whether a texture of pitched device memory can read the writable image
// in place: 1 or 2 dimensions, the driver's alignment of the address and
// the row pitch, its extents.
bool fitsPitchedTexture(uint32_t device, const void *data, const onepass_backend_image &image, unsigned texelBytes) {
  if (image.dimensions > 2) return false;
  const uint64_t pitch = image.dimensions == 2 ? image.pitch[0] : image.range[0] * texelBytes;
  const uint64_t alignment = deviceLimit(device, TextureAlignment);
  const uint64_t pitchAlignment = deviceLimit(device, TexturePitchAlignment);
  return alignment && pitchAlignment && reinterpret_cast<uintptr_t>(data) % alignment == 0 &&
         pitch % pitchAlignment == 0 && image.range[0] <= deviceLimit(device, MaxTexture2DLinearWidth) &&
         image.range[1] <= deviceLimit(device, MaxTexture2DLinearHeight) &&
         pitch <= deviceLimit(device, MaxTexture2DLinearPitch);
}

// Whether the device's textures hold the image.
bool fitsTextures(uint32_t device, const onepass_backend_image &image) {
  auto limit = [&](DeviceAttribute attribute) { return deviceLimit(device, attribute); };
  switch (image.dimensions) {
  case 1:
  case 2: return image.range[0] <= limit(MaxTexture2DWidth) && image.range[1] <= limit(MaxTexture2DHeight);
  default:
    return image.range[0] <= limit(MaxTexture3DWidth) && image.range[1] <= limit(MaxTexture3DHeight) &&
           image.range[2] <= limit(MaxTexture3DDepth);
  }
}

void destroy(Texture &texture) {
  const DriverApi &api = *backend().api;
  if (texture.object) api.cuTexObjectDestroy(texture.object);
  if (texture.array) api.cuArrayDestroy(texture.array);
  if (texture.copied) api.cuEventDestroy_v2(texture.copied);
  texture = Texture{};
}

// Copies the allocation's texels into the array on `stream`: one 3-D copy,
// or a copy per slice where the slice pitch is no whole number of rows.
CUresult copyTexels(const void *data, const onepass_backend_image &image, unsigned texelBytes, CUarray array,
                    CUstream stream) {
  const DriverApi &api = *backend().api;
  const uint64_t height = image.dimensions >= 2 ? image.range[1] : 1;
  const uint64_t depth = image.dimensions == 3 ? image.range[2] : 1;
  const uint64_t rowPitch = image.dimensions >= 2 ? image.pitch[0] : image.range[0] * texelBytes;
  const bool wholeRows = depth == 1 || image.pitch[1] % rowPitch == 0;
  for (uint64_t z = 0; z < (wholeRows ? 1 : depth); ++z) {
    CUDA_MEMCPY3D copy{};
    copy.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    copy.srcDevice = reinterpret_cast<CUdeviceptr>(data) + (wholeRows ? 0 : z * image.pitch[1]);
    copy.srcPitch = rowPitch;
    copy.srcHeight = wholeRows && depth > 1 ? image.pitch[1] / rowPitch : height;
    copy.dstMemoryType = CU_MEMORYTYPE_ARRAY;
    copy.dstArray = array;
    copy.dstZ = wholeRows ? 0 : z;
    copy.WidthInBytes = image.range[0] * texelBytes;
    copy.Height = height;
    copy.Depth = wholeRows ? depth : 1;
    CUresult result = api.cuMemcpy3DAsync_v2(&copy, stream);
    if (result != CUDA_SUCCESS) return result;
  }
  return CUDA_SUCCESS;
}

}  // namespace

int imageTexture(uint32_t device, uint32_t stream, const void *data, const onepass_backend_image *image,
                 uint64_t *texture, char **error) {
  *texture = 0;
  Backend &b = backend();
  const DriverApi &api = *b.api;
  if (!api.cuArray3DCreate_v2 || !api.cuArrayDestroy || !api.cuMemcpy3DAsync_v2 || !api.cuTexObjectCreate ||
      !api.cuTexObjectDestroy)
    return 0;
  const ArrayFormat format = arrayFormat(image->format);
  const int mode = addressMode(image->addressing, image->normalized != 0);
  if (!data || format.format == 0 || mode < 0 || image->dimensions < 1 || image->dimensions > 3) return 0;
  for (uint32_t d = 0; d < image->dimensions; ++d)
    if (image->range[d] == 0) return 0;
  if (!enter(device, error)) return 1;
  Device &d = *b.devices[device];
  CUstream target = stream == UINT32_MAX ? d.stream : d.streams[stream];

  std::lock_guard<std::mutex> lock(d.textureMutex);
  auto found = d.textures.find(data);
  if (found != d.textures.end() && !sameImage(found->second.image, *image)) {
    destroy(found->second);  // (not expected: a sampled image's allocation keeps its shape)
    d.textures.erase(found);
    found = d.textures.end();
  }
  if (found != d.textures.end()) {
    Texture &t = found->second;
    // Work on another stream waits for the copy until it has completed.
    if (t.copied) {
      CUresult state = api.cuEventQuery(t.copied);
      if (state == CUDA_SUCCESS) {
        api.cuEventDestroy_v2(t.copied);
        t.copied = nullptr;
      } else if (state != CUDA_ERROR_NOT_READY) {
        return deviceFailure(device, state, error);
      } else if (t.copyStream != stream) {
        ONEPASS_CUDA_CHECK(api.cuStreamWaitEvent(target, t.copied, 0), "waiting for an image's copy to its texture");
      }
    }
    *texture = t.object;
    return 0;
  }

  // An image read in software is remembered as such (object 0): later
  // launches ask the driver nothing.
  auto inSoftware = [&] {
    Texture none;
    none.image = *image;
    d.textures.emplace(data, none);
    return 0;
  };
  if (image->writable) {
    // Read in place, no copy: a texture of the pitched allocation.
    if (!fitsPitchedTexture(device, data, *image, format.texelBytes)) return inSoftware();
    Texture t;
    t.image = *image;
    CUDA_RESOURCE_DESC resource{};
    resource.resType = 3;  // pitched device memory
    resource.res.pitch2D.devPtr = reinterpret_cast<CUdeviceptr>(data);
    resource.res.pitch2D.format = format.format;
    resource.res.pitch2D.numChannels = 4;
    resource.res.pitch2D.width = image->range[0];
    resource.res.pitch2D.height = image->dimensions == 2 ? image->range[1] : 1;
    resource.res.pitch2D.pitchInBytes = image->dimensions == 2 ? image->pitch[0] : image->range[0] * format.texelBytes;
    CUDA_TEXTURE_DESC reads{};
    for (int axis = 0; axis < 3; ++axis) reads.addressMode[axis] = CU_TR_ADDRESS_MODE_BORDER;  // zeros outside
    reads.filterMode = CU_TR_FILTER_MODE_POINT;
    reads.flags = format.integer ? CU_TRSF_READ_AS_INTEGER : 0u;
    CUresult result = api.cuTexObjectCreate(&t.object, &resource, &reads, nullptr);
    if (result != CUDA_SUCCESS) {
      log(1, "no texture for an unsampled image on '" + d.name + "' (" + describe(api, result) +
                 "): it is read in software");
      return inSoftware();
    }
    *texture = t.object;
    d.textures.emplace(data, t);
    return 0;
  }
  if (!fitsTextures(device, *image)) {
    log(2, "a sampled image of " + std::to_string(image->range[0]) + "x" + std::to_string(image->range[1]) + "x" +
               std::to_string(image->range[2]) + " texels exceeds the textures of '" + d.name +
               "': it is sampled in software");
    return inSoftware();
  }
  Texture t;
  t.image = *image;
  CUDA_ARRAY3D_DESCRIPTOR shape{};
  shape.Width = image->range[0];
  shape.Height = image->dimensions >= 2 ? image->range[1] : 1;  // a 1-D image is one row (group.cpp says why)
  shape.Depth = image->dimensions == 3 ? image->range[2] : 0;
  shape.Format = format.format;
  shape.NumChannels = 4;
  CUresult result = api.cuArray3DCreate_v2(&t.array, &shape);
  if (result != CUDA_SUCCESS) {
    // Out of memory for the copy, say: software sampling reads the allocation itself.
    log(1, "no texture for a sampled image on '" + d.name + "' (" + describe(api, result) +
               "): it is sampled in software");
    return inSoftware();
  }
  result = copyTexels(data, *image, format.texelBytes, t.array, target);
  if (result == CUDA_SUCCESS) result = api.cuEventCreate(&t.copied, CU_EVENT_DISABLE_TIMING);
  if (result == CUDA_SUCCESS) result = api.cuEventRecord(t.copied, target);
  if (result != CUDA_SUCCESS) {
    api.cuStreamSynchronize(target);  // (a copy enqueued before the failure must end before its array goes)
    destroy(t);
    return fail(error, "copying a sampled image to its texture failed on '" + d.name + "': " + describe(api, result));
  }
  t.copyStream = stream;

  CUDA_RESOURCE_DESC resource{};
  resource.resType = 0;  // an array
  resource.res.array = t.array;
  CUDA_TEXTURE_DESC sampler{};
  for (int axis = 0; axis < 3; ++axis) sampler.addressMode[axis] = mode;
  // Integer formats are read nearest even with a linear sampler (as in software).
  sampler.filterMode = image->filtering == 1 && !format.integer ? CU_TR_FILTER_MODE_LINEAR : CU_TR_FILTER_MODE_POINT;
  sampler.flags = (format.integer ? CU_TRSF_READ_AS_INTEGER : 0u) |
                  (image->normalized ? CU_TRSF_NORMALIZED_COORDINATES : 0u);
  result = api.cuTexObjectCreate(&t.object, &resource, &sampler, nullptr);
  if (result != CUDA_SUCCESS) {
    // The copy may still be running: wait for it before the array goes.
    api.cuEventSynchronize(t.copied);
    destroy(t);
    log(1, "no texture for a sampled image on '" + d.name + "' (" + describe(api, result) +
               "): it is sampled in software");
    return inSoftware();
  }
  *texture = t.object;
  d.textures.emplace(data, t);
  return 0;
}

// The allocation's commands have all completed (the runtime frees an image's
// allocations after its last command): nothing uses its texture any more.
void releaseTextures(uint32_t device, const void *allocation) {
  Device &d = *backend().devices[device];
  std::lock_guard<std::mutex> lock(d.textureMutex);
  auto found = d.textures.find(allocation);
  if (found == d.textures.end()) return;
  destroy(found->second);
  d.textures.erase(found);
}

}  // namespace onepass::cuda
