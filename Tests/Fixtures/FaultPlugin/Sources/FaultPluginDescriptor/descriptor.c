#include <ApiaryPlugin.h>

APIARY_PLUGIN(
  "plugin FaultPlugin\n"
  "version 1.0.0\n"
  "module FaultPlugin.FaultModule\n"
  "target FaultPlugin.FaultTarget\n"
  "requires apiary >=0.1.0 <0.2.0\n")
