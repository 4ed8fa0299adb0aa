// oracles/reference/level_zero/append.h — what every zeCommandListAppend*
// entry point shares (api_command.cc, api_image.cc).
//
// Contract: Prepare checks the list handle, the signal event and the wait
// events and fills the command's events; Record adds the command to a
// regular list (ZE_RESULT_ERROR_INVALID_ARGUMENT once it is closed) or runs
// it at once on an immediate list, waiting for it when the list is
// synchronous.
#pragma once

#include <level_zero/ze_api.h>

#include "oracles/reference/level_zero/command.h"
#include "oracles/reference/level_zero/objects.h"

namespace l0spv::zeref {

ze_result_t Prepare(ze_command_list_handle_t handle, ze_event_handle_t signal,
                    uint32_t num_waits, ze_event_handle_t* waits,
                    CommandList** list, Command* command);
ze_result_t Record(CommandList* list, Command command);

}  // namespace l0spv::zeref
