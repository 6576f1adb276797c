/** An application as a choice in a form or a filter: its id and its name. */
export interface ApplicationChoice {
  id: string
  name: string
}
