#ifndef PASSIM_CCURL_H
#define PASSIM_CCURL_H
#include <curl/curl.h>
// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call.
CURLcode passim_setopt_long(CURL *h, CURLoption o, long v);
CURLcode passim_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode passim_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode passim_setopt_write_function(CURL *h, CURLoption o, size_t (*f)(char *, size_t, size_t, void *));
CURLcode passim_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode passim_getinfo_string(CURL *h, CURLINFO i, char **v);
#endif
