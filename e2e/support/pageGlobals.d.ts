// What the functions passed to page.evaluate() use of the browser. The DOM library is left out on
// purpose: its Blob would clash with Node's in the server's test helpers this package imports.
interface PageStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
declare const localStorage: PageStorage;
declare const sessionStorage: PageStorage;
declare const navigator: { clipboard: { readText(): Promise<string>; writeText(text: string): Promise<void> } };
declare function getComputedStyle(element: unknown): {
  color: string;
  filter: string;
  backgroundColor: string;
  textOverflow: string;
  whiteSpace: string;
};
declare const document: { dispatchEvent(event: Event): boolean; location: { pathname: string } };
