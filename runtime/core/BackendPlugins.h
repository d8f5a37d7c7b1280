// Loads optional backend plugins (lib/onepass/libonepass-backend-<name>.so)
// and gives them the runtime's one service, its log.
#pragma once

#include "BackendInterface.h"

#include <string>

namespace onepass::rt {

// The plugin's table, or nullptr with `why` saying why the backend is absent.
const onepass_backend *loadBackendPlugin(const char *name, std::string &why);

}  // namespace onepass::rt
