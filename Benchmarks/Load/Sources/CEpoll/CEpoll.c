// A C target needs a source file; everything the tool uses is in the header.
#include "CEpoll.h"
