/*
 * version.c - the version of the library as built, for programs linked to
 * a shared copy that may be newer than the header they were compiled with.
 */
#include "warptour.h"

unsigned wt_version_number(void)
{
    return WT_VERSION_NUMBER;
}
