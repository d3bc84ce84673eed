#ifndef FLOWKIT_CGRAPHVIZ_SHIM_H
#define FLOWKIT_CGRAPHVIZ_SHIM_H
#include <graphviz/gvc.h>
#include <graphviz/cgraph.h>
#endif
