#ifndef APPSTATE_CYAML_SHIM_H
#define APPSTATE_CYAML_SHIM_H

/* libyaml (Debian libyaml-dev, pkg-config yaml-0.1): the YAML 1.1 parser the service reads
   tree files with, through its event API. */
#include <yaml.h>

#endif
