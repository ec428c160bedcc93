#ifndef PASSIM_CLIBXML2_SHIM_H
#define PASSIM_CLIBXML2_SHIM_H
// Debian builds libxml2 with ICU; <libxml/encoding.h> then drags in <unicode/ucnv.h>, whose
// UErrorCode clashes with Foundation's copy on a clean build. Nothing here needs ICU.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlsave.h>
#include <libxml/xmlIO.h>
#include <libxml/c14n.h>

// xmlFree is a global function pointer, which Swift 6 rejects as shared mutable state.
static inline void passim_xmlFree(void *p) { xmlFree(p); }
#endif
