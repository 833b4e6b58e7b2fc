/** The widget the in-process HTTP benches answer with (as a record's JSON would carry it). */
export const widget = {
  id: "0190f5a2-7b1c-7cde-8f00-1234567890ab",
  title: "Hammer",
  description: null,
  created_at: "2024-01-02T03:04:05.123Z",
  updated_at: "2024-01-02T03:04:05.123Z",
};
