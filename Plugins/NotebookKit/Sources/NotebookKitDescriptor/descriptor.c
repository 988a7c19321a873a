#include <ApiaryPlugin.h>

// A contract library: no modules, no entry point.
APIARY_PLUGIN(
  "plugin NotebookKit\n"
  "version 1.0.0\n"
  "requires apiary >=0.1.0 <0.2.0\n")
