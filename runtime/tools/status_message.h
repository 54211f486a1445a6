/* One-sentence explanations of tinypte status codes, for host tools' error messages. */
#ifndef TINYPTE_STATUS_MESSAGE_H
#define TINYPTE_STATUS_MESSAGE_H

#include "tinypte/status.h"

/** What `status` means and what to do about it. */
const char *tp_status_message(tp_status status);

#endif /* TINYPTE_STATUS_MESSAGE_H */
