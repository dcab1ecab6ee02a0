/*
 * error.c - f_strerror, from the one list in filaments.h.
 */
#include "base.h"

const char *f_strerror(int code)
{
    switch (code) {
    case F_OK:
        return "success";
#define F_ERROR_TEXT_(name, value, text)                                       \
    case name:                                                                 \
        return text;
        F_ERRORS(F_ERROR_TEXT_)
#undef F_ERROR_TEXT_
    default:
        return "unknown error code";
    }
}
