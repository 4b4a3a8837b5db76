#include "../shim.h"
