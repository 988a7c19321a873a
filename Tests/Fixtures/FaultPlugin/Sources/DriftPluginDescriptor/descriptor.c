#include <ApiaryPlugin.h>

// Declares DeclaredModule; the entry exports ShippedModule (see DriftModule.swift).
APIARY_PLUGIN(
  "plugin DriftPlugin\n"
  "version 1.0.0\n"
  "module DriftPlugin.DeclaredModule\n"
  "requires apiary >=0.1.0 <0.2.0\n")
