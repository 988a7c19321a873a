#include "ApiaryPlugin.h"

const char *apiary_host_version(void) { return APIARY_VERSION; }
const char *apiary_host_abi_hash(void) { return APIARY_ABI_HASH; }
const char *apiary_host_compiler(void) { return APIARY_COMPILER; }
const char *apiary_host_triple(void) { return APIARY_TRIPLE; }
const char *apiary_host_configuration(void) { return APIARY_CONFIGURATION; }
