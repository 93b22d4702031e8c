/**
 * Action and callback ids: the only contract between the blocks we send and the listeners.
 * Kept apart from the listeners' dependencies so the blocks import nothing that imports them.
 */
export const ACTIONS = {
  approve: 'approval_approve',
  edit: 'approval_edit',
  reject: 'approval_reject',
  homeRefresh: 'home_refresh',
  homeLink: 'home_link_open',
} as const;

export const VIEWS = {
  edit: 'approval_edit_submit',
  reject: 'approval_reject_submit',
  link: 'identity_link_submit',
} as const;
