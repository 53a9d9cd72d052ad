// The shims are header-only (static inline); this file gives the target a source to compile.
#include "CountdownKitShims.h"
