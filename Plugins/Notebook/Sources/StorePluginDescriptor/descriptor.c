#include <ApiaryPlugin.h>

APIARY_PLUGIN(
  "plugin StorePlugin\n"
  "version 1.0.0\n"
  "module StorePlugin.StoreModule\n"
  "requires apiary >=0.1.0 <0.2.0\n"
  "requires NotebookKit >=1.0.0 <2.0.0\n")
