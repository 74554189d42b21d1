import { setNonce } from 'get-nonce';

/**
 * The nonce the server gave this page: under the Content-Security-Policy only style tags that
 * carry it apply. Mantine writes its theme into style tags, and modals lock the page's scrolling
 * with one of their own (react-remove-scroll, which takes its nonce from get-nonce).
 */
export const styleNonce = document.querySelector<HTMLMetaElement>('meta[property="csp-nonce"]')?.nonce ?? '';

setNonce(styleNonce);

export const getStyleNonce = () => styleNonce;
