// The account pages' addresses, for links between them.

/** The profile page, with the sign-in form for guests. */
export const ACCOUNT_PATH = '/profile';
/** "Forgot password": asks for a reset link by e-mail. */
export const FORGOT_PASSWORD_PATH = '/forgot-password';
/** The page the reset mail links to (?token=…); the server builds the same address. */
export const RESET_PASSWORD_PATH = '/reset-password';
/** The page the verification and e-mail change mails link to (?token=…); the server builds the same address. */
export const VERIFY_EMAIL_PATH = '/verify-email';
