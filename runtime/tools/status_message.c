/* Explanations of status codes, from TP_STATUS_LIST (kept out of the runtime so firmware
 * does not carry the strings). */
#include "status_message.h"

const char *tp_status_message(tp_status status) {
  switch (status) {
#define TP_STATUS_MESSAGE_CASE(name, code, message) \
  case name:                                        \
    return message;
    TP_STATUS_LIST(TP_STATUS_MESSAGE_CASE)
#undef TP_STATUS_MESSAGE_CASE
  }
  return "unknown status code";
}
