#include "embeddingeditor.h"
