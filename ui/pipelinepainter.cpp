#include "pipelinepainter.h"
