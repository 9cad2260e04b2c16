/**
 * The content width system (docs/architecture.md#content-widths): every screen sits in the shell's
 * one container (`WithNavbar`, Mantine's `xl`, 1320 px); screens of running text (home, posts, a
 * post, the profile, about) narrow it to one reading width, centred, so that they line up with each
 * other and their lines stay readable. Nothing else sets its own page width.
 */
export const READING_WIDTH = 960
