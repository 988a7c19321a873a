#include <ApiaryPlugin.h>

APIARY_PLUGIN(
  "plugin NotesPlugin\n"
  "version 1.0.0\n"
  "module NotesPlugin.NotesModule\n"
  "target NotesPlugin.NotesTarget\n"
  "requires apiary >=0.1.0 <0.2.0\n"
  "requires NotebookKit >=1.0.0 <2.0.0\n")
