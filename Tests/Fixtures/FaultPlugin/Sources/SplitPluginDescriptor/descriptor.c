#include <ApiaryPlugin.h>

APIARY_PLUGIN(
  "plugin SplitPlugin\n"
  "version 1.0.0\n"
  "module SplitPlugin.SplitModule\n")
