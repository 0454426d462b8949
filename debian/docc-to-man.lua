-- Turns the DocC page on tree files into the body of appstate-tree(5), so that the man page
-- and the documentation have one source: the page's title becomes DESCRIPTION and its topics
-- sections of their own, symbol links read as the names they link, and links to other
-- articles name them. "Kinds of controller" is left out: it says how the code declares a
-- container, which nobody writing a tree file needs.

local left_out = "Kinds of controller"

-- ``TreeFile/decode(json:)-([UInt8])``, which debian/rules marks `…`{.symbol}: the symbol's
-- path with dots, without the disambiguation DocC appends (a symbol's name has no "-").
function Code(code)
  if code.classes:includes("symbol") then
    return pandoc.Code((code.text:gsub("%-[^/]*$", ""):gsub("/", ".")))
  end
end

-- <doc:Presentation>, which pandoc reads as an HTML tag.
function RawInline(raw)
  local article = raw.format == "html" and raw.text:match("^<doc:(.+)>$")
  if article then
    return { pandoc.Emph(article), pandoc.Str(" in the StateContainers documentation") }
  end
end

-- pandoc's man writer shares 70 ens among a table's columns, and tbl adds 3 between them:
-- nine tenths of that leave room for them in the 73 ens of an 80-column terminal. The last
-- column, where the DocC page's tables explain, gets a double share. Columns that narrow
-- are set ragged right (.na): justified, their lines would stretch gaps or not adjust at all.
function Table(table)
  local shares = #table.colspecs + 1
  for index, colspec in ipairs(table.colspecs) do
    colspec[2] = (index == #table.colspecs and 2 or 1) / shares * 0.9
  end
  return { pandoc.RawBlock("man", ".na"), table, pandoc.RawBlock("man", ".ad") }
end

function Pandoc(document)
  local blocks = pandoc.List()
  local skipping = false
  for _, block in ipairs(document.blocks) do
    if block.t == "Header" then
      local title = pandoc.utils.stringify(block.content)
      skipping = title == left_out
      if block.level == 1 then
        blocks:insert(pandoc.Header(1, "DESCRIPTION"))
      elseif block.level > 2 and not skipping then
        blocks:insert(pandoc.Header(1, title:upper()))
      end
    elseif not skipping then
      blocks:insert(block)
    end
  end
  document.blocks = blocks
  return document
end
