/** Rescheduling a user's cards after their FSRS parameters change, on the device. */
export {
  type CurrentSchedule,
  type NewSchedule,
  type RescheduleLog,
  type RescheduleSettings,
  rescheduleCards,
} from "./reschedule";
