/**
 * One field's formatting toolbar (WAI-ARIA toolbar: one tab stop, arrow keys
 * move between buttons). Buttons show their state with aria-pressed and name
 * their shortcut with aria-keyshortcuts.
 */
import { type Editor, useEditorState } from "@tiptap/react";
import { Bold, Brackets, CodeXml, ImagePlus, Italic, Link, List, ListOrdered, Underline } from "lucide-react";
import { type KeyboardEvent, type ReactNode, useRef, useState } from "react";
import { wrapInCloze } from "./cloze-extension.js";
import { ariaKeys, describeKeys, type NoteEditorShortcut, noteEditorShortcuts } from "./shortcuts.js";

interface ToolbarProps {
  editor: Editor;
  label: string;
  cloze: boolean;
  onLink: () => void;
  onPickFile: () => void;
  /** Whether the field shows its HTML; the formatting tools act on rich text only. */
  htmlView: boolean;
  onToggleHtml: () => void;
}

interface Tool {
  id: string;
  label: string;
  icon: ReactNode;
  shortcut?: NoteEditorShortcut;
  pressed?: boolean;
  run: () => void;
}

export function FieldToolbar({ editor, label, cloze, onLink, onPickFile, htmlView, onToggleHtml }: ToolbarProps) {
  const active = useEditorState({
    editor,
    selector: ({ editor: current }) => ({
      bold: current.isActive("bold"),
      italic: current.isActive("italic"),
      underline: current.isActive("underline"),
      bulletList: current.isActive("bulletList"),
      orderedList: current.isActive("orderedList"),
      link: current.isActive("link"),
    }),
  });
  const htmlTool: Tool = {
    id: "html",
    label: "Edit as HTML",
    icon: <CodeXml aria-hidden />,
    shortcut: "html",
    pressed: htmlView,
    run: onToggleHtml,
  };
  const richTools: Tool[] = [
    {
      id: "bold",
      label: "Bold",
      icon: <Bold aria-hidden />,
      shortcut: "bold",
      pressed: active.bold,
      run: () => editor.chain().focus().toggleBold().run(),
    },
    {
      id: "italic",
      label: "Italic",
      icon: <Italic aria-hidden />,
      shortcut: "italic",
      pressed: active.italic,
      run: () => editor.chain().focus().toggleItalic().run(),
    },
    {
      id: "underline",
      label: "Underline",
      icon: <Underline aria-hidden />,
      shortcut: "underline",
      pressed: active.underline,
      run: () => editor.chain().focus().toggleUnderline().run(),
    },
    {
      id: "bullets",
      label: "Bulleted list",
      icon: <List aria-hidden />,
      pressed: active.bulletList,
      run: () => editor.chain().focus().toggleBulletList().run(),
    },
    {
      id: "numbers",
      label: "Numbered list",
      icon: <ListOrdered aria-hidden />,
      pressed: active.orderedList,
      run: () => editor.chain().focus().toggleOrderedList().run(),
    },
    { id: "link", label: "Link", icon: <Link aria-hidden />, shortcut: "link", pressed: active.link, run: onLink },
    { id: "media", label: "Insert image or sound", icon: <ImagePlus aria-hidden />, run: onPickFile },
  ];
  if (cloze) {
    richTools.push({
      id: "cloze",
      label: "Cloze deletion",
      icon: <Brackets aria-hidden />,
      shortcut: "cloze",
      run: () => wrapInCloze(editor, false),
    });
  }
  const tools = htmlView ? [htmlTool] : [...richTools, htmlTool];

  const [chosen, setCurrent] = useState(0);
  // The tab stop stays on a tool that exists when the set of tools changes.
  const current = Math.min(chosen, tools.length - 1);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const move = (event: KeyboardEvent) => {
    const last = tools.length - 1;
    const next =
      event.key === "ArrowRight"
        ? current === last
          ? 0
          : current + 1
        : event.key === "ArrowLeft"
          ? current === 0
            ? last
            : current - 1
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setCurrent(next);
    buttons.current[next]?.focus();
  };

  return (
    <div role="toolbar" aria-label={`${label} formatting`} className="field-toolbar" onKeyDown={move} tabIndex={-1}>
      {tools.map((tool, index) => {
        const keys = tool.shortcut ? noteEditorShortcuts[tool.shortcut].keys : undefined;
        return (
          <button
            key={tool.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            className="field-tool"
            tabIndex={index === current ? 0 : -1}
            aria-pressed={tool.pressed}
            aria-keyshortcuts={keys ? ariaKeys(keys) : undefined}
            title={keys ? `${tool.label} (${describeKeys(keys)})` : tool.label}
            onFocus={() => setCurrent(index)}
            // Keep the editor's selection: the button acts on it.
            onMouseDown={(event) => event.preventDefault()}
            onClick={tool.run}
          >
            {tool.icon}
            <span className="visually-hidden">{tool.label}</span>
          </button>
        );
      })}
    </div>
  );
}
