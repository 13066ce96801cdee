#include "lsp/json_body.h"

#include <simdjson.h>

namespace hlolint::lsp {
namespace {

// Bodies up to this size reuse one parser per thread; a larger one gets a
// parser of its own, freed with it, so its buffers do not stay resident.
constexpr size_t kReusedParserCapacity = size_t{1} << 20;

// Depth is bounded by the parser's kMaxJsonDepth: the recursion is too.
nlohmann::json ToJson(simdjson::dom::element element) {
  using Type = simdjson::dom::element_type;
  switch (element.type()) {
    case Type::ARRAY: {
      const simdjson::dom::array items = element.get_array().value_unsafe();
      nlohmann::json array = nlohmann::json::array();
      for (simdjson::dom::element item : items) array.push_back(ToJson(item));
      return array;
    }
    case Type::OBJECT: {
      const simdjson::dom::object fields = element.get_object().value_unsafe();
      nlohmann::json object = nlohmann::json::object();
      for (simdjson::dom::key_value_pair field : fields) {
        object[std::string(field.key)] = ToJson(field.value);
      }
      return object;
    }
    case Type::INT64:
      return element.get_int64().value_unsafe();
    case Type::UINT64:
      return element.get_uint64().value_unsafe();
    case Type::DOUBLE:
      return element.get_double().value_unsafe();
    case Type::STRING:
      return std::string(element.get_string().value_unsafe());
    case Type::BOOL:
      return element.get_bool().value_unsafe();
    case Type::NULL_VALUE:
      return nullptr;
  }
  return nullptr;
}

std::optional<nlohmann::json> Parse(simdjson::dom::parser& parser, std::string& body,
                                    std::string* error) {
  const bool needs_padding = body.capacity() < body.size() + simdjson::SIMDJSON_PADDING;
  simdjson::dom::element root;
  const simdjson::error_code code = parser.parse(body.data(), body.size(), needs_padding).get(root);
  if (code == simdjson::DEPTH_ERROR) {
    *error = "the body is nested deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    return std::nullopt;
  }
  if (code != simdjson::SUCCESS) {
    *error = "the body is not JSON";
    return std::nullopt;
  }
  return ToJson(root);
}

}  // namespace

std::optional<nlohmann::json> ParseJsonBody(std::string& body, std::string* error) {
  static_assert(kMaxJsonDepth == simdjson::DEFAULT_MAX_DEPTH, "the parsers' depth limit");
  if (body.size() <= kReusedParserCapacity) {
    thread_local simdjson::dom::parser parser(kReusedParserCapacity);
    return Parse(parser, body, error);
  }
  simdjson::dom::parser parser;
  return Parse(parser, body, error);
}

}  // namespace hlolint::lsp
