// Every Mantine style, loaded with the pages, modals and panels beyond the first pages (which
// bring only app/mantineStyles.css and app/shell/shellStyles.css): they use most components.
import '@mantine/core/styles.layer.css';
