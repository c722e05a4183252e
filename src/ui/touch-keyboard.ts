/**
 * Whether the reader types on an on-screen keyboard. A coarse primary pointer alone is not
 * enough: a touch-screen laptop or a tablet in a keyboard case has one too, and also a fine
 * pointer (trackpad, mouse), whose hardware keyboard must keep Enter to send. Only a device
 * with no fine pointer at all (a phone, a bare tablet) is taken to type on the screen.
 * `maxTouchPoints` or `ontouchstart` would take those laptops for phones.
 */
export const touchKeyboard = (): boolean =>
  matchMedia('(pointer: coarse)').matches && !matchMedia('(any-pointer: fine)').matches;
