#include <ApiaryPlugin.h>

APIARY_PLUGIN(
  "plugin SearchPlugin\n"
  "version 1.0.0\n"
  "module SearchPlugin.SearchModule\n"
  "target SearchPlugin.SearchTarget\n"
  "requires apiary >=0.1.0 <0.2.0\n"
  "requires NotebookKit >=1.0.0 <2.0.0\n")
